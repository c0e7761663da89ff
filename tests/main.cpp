// doctest's runner, as DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN writes it (the
// implementation is doctest_impl.cpp's).
#include <doctest/doctest.h>

int main(int argc, char** argv) { return doctest::Context(argc, argv).run(); }
