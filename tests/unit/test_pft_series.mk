test_pft_series_SRCS := tools/pft/series.c
