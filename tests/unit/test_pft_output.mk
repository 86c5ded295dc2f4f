test_pft_output_SRCS := tools/pft/output.c tools/pft/options.c
