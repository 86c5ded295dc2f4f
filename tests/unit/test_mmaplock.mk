test_mmaplock_SRCS := tests/unit/mmaplock_kside.c
