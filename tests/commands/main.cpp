#include <stdlib.h>

#include <doctest/doctest.h>

int main(int argc, char** argv) {
    // The commands take the host token from here too: each case says when.
    ::unsetenv("VIVAREF_HOST_TOKEN");
    doctest::Context context(argc, argv);
    return context.run();
}
