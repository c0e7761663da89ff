// doctest's implementation, compiled once for every test binary: those with
// doctest's own main() take it with main.cpp (vivaref_doctest_main), those
// with a main of their own (the club's, the commands', the PN532 tests')
// take it alone (vivaref_doctest).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
