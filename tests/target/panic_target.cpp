// SPDX-License-Identifier: MIT
// kairos_port_panic() must print and exit with the port's panic code 97;
// the test checks the exact status (EXPECT_EXIT 97).
#include "target.hpp"

int main() {
    kairos_port_panic("deliberate panic", __FILE__, __LINE__);
}
