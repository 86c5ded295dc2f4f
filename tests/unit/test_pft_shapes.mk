test_pft_shapes_SRCS := tools/pft/options.c tools/pft/output.c
