# SPDX-License-Identifier: MIT
# Sources of the RV32 machine-mode port: only what the architecture and the
# CLINT define. The timer's rate is set at run time (kairos::port::
# set_cpu_hz(), by the board); the CLINT's address (kairos_riscv_clint),
# console, exit, mtvec and the exception policy are the board's (boards/).
# The kernel idles in its own context: the switch runs in the trap, where
# interrupts cannot nest.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/riscv32)
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/trap.S ${dir}/atomic_subword.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/ticker.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/atomic_irq.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/panic.cpp)
    kairos_port_interface(${target} DIR ${dir} IRQ_INLINE NO_IDLE_IN_SWITCH
                          HEADERS kairos_port_irq.hpp riscv.hpp frame.hpp)
endfunction()
