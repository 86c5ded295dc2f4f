test_pft_clock_SRCS := tools/pft/clock.c
