/* Empty: tests/windows/compat/posix_tests.h declares what the tests use of it. */
