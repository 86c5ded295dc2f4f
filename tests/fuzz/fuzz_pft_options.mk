fuzz_pft_options_SRCS := tools/pft/options.c
