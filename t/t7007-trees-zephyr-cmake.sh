#!/bin/sh
test_description='Zephyr build model: CMakeLists.txt with _ifdef/_ifndef functions and if() blocks'
. ./test-lib.sh

test_expect_success 'setup: a Zephyr-style tree built with CMake' '
	write_file Kconfig <<-\EOF &&
	mainmenu "Zephyr Kernel Configuration"
	source "Kconfig.zephyr"
	EOF
	write_file Kconfig.zephyr <<-\EOF &&
	config SERIAL
		bool "serial"
	config UART_VND
		bool "vendor uart"
		depends on SERIAL
	config ETH_DRIVER
		bool "ethernet"
	config MDIO
		bool "mdio"
	config NET_L2
		bool "l2"
	config NET_SHELL
		bool "net shell"
	config USERSPACE
		bool "userspace"
	EOF
	write_file CMakeLists.txt <<-\EOF &&
	# SPDX-License-Identifier: Apache-2.0
	project(Zephyr-Kernel VERSION ${PROJECT_VERSION})
	add_subdirectory(drivers)
	add_subdirectory(subsys)
	add_subdirectory(kernel)
	add_subdirectory(${BOARD_DIR})
	EOF
	write_file drivers/CMakeLists.txt <<-\EOF &&
	add_definitions(-D__ZEPHYR_SUPERVISOR__)
	add_subdirectory_ifdef(CONFIG_SERIAL serial)

	if(CONFIG_ETH_DRIVER OR CONFIG_MDIO)
	  add_subdirectory(ethernet)
	endif()
	EOF
	write_file drivers/serial/CMakeLists.txt <<-\EOF &&
	zephyr_library()
	zephyr_library_sources_ifdef(CONFIG_UART_VND     uart_vnd.c)
	zephyr_library_sources_ifndef(CONFIG_UART_VND    uart_stub.c)
	zephyr_library_sources_ifdef(CONFIG_USERSPACE   serial_handlers.c)
	EOF
	write_file drivers/serial/uart_vnd.c <<-\EOF &&
	#ifndef CONFIG_SERIAL
	int never;
	#endif
	EOF
	write_file drivers/serial/uart_stub.c <<-\EOF &&
	int stub;
	EOF
	write_file drivers/serial/serial_handlers.c <<-\EOF &&
	int handlers;
	EOF
	write_file drivers/ethernet/CMakeLists.txt <<-\EOF &&
	zephyr_library_sources(
	  eth.c   # the driver
	  "eth_common.c"
	)
	EOF
	write_file drivers/ethernet/eth.c <<-\EOF &&
	int eth;
	EOF
	write_file drivers/ethernet/eth_common.c <<-\EOF &&
	int common;
	EOF
	write_file subsys/CMakeLists.txt <<-\EOF &&
	add_subdirectory_if_kconfig(net_l2)
	function(never_called)
	  add_subdirectory(unused)
	endfunction()
	#[[ a bracket comment: add_subdirectory(unused) ]]
	add_subdirectory(net)
	EOF
	write_file subsys/net_l2/CMakeLists.txt <<-\EOF &&
	zephyr_sources(l2.c)
	EOF
	write_file subsys/net_l2/l2.c <<-\EOF &&
	int l2;
	EOF
	write_file subsys/unused/CMakeLists.txt <<-\EOF &&
	zephyr_sources(unused.c)
	EOF
	write_file subsys/unused/unused.c <<-\EOF &&
	int unused;
	EOF
	write_file subsys/net/CMakeLists.txt <<-\EOF &&
	if(NOT CONFIG_NET_L2)
	  zephyr_sources(no_l2.c)
	elseif(CONFIG_NET_SHELL AND DEFINED CONFIG_USERSPACE)
	  target_sources(app PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/shell.c)
	else()
	  zephyr_sources(${ZEPHYR_BASE}/subsys/net/plain.c)
	endif()
	if(${SOC_NAME} STREQUAL "vnd")
	  zephyr_sources(soc.c)
	endif()
	EOF
	write_file subsys/net/no_l2.c <<-\EOF &&
	int no_l2;
	EOF
	write_file subsys/net/shell.c <<-\EOF &&
	int shell;
	EOF
	write_file subsys/net/plain.c <<-\EOF &&
	int plain;
	EOF
	write_file subsys/net/soc.c <<-\EOF &&
	int soc;
	EOF
	write_file kernel/CMakeLists.txt <<-\EOF &&
	add_library(kernel
	  device.c
	  )
	target_sources_ifdef(
	  CONFIG_USERSPACE
	  kernel PRIVATE
	  futex.c
	  )
	target_sources_if_kconfig(                        kernel PRIVATE poll.c)
	EOF
	write_file kernel/device.c <<-\EOF &&
	int device;
	EOF
	write_file kernel/futex.c <<-\EOF &&
	int futex;
	EOF
	write_file kernel/poll.c <<-\EOF &&
	int poll;
	EOF
	write_file boards/vnd/board/CMakeLists.txt <<-\EOF &&
	zephyr_library_sources(board.c)
	EOF
	write_file boards/vnd/board/board.c <<-\EOF &&
	int board;
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success '--dump-model=files: conditions from _ifdef, _ifndef, _if_kconfig, if/elseif/else, add_library' '
	git undertaker --dump-model=files base >files 2>err &&
	test_must_be_empty err &&
	grep "^drivers/serial/uart_vnd.c	CONFIG_SERIAL && CONFIG_UART_VND$" files &&
	grep "^drivers/serial/uart_stub.c	CONFIG_SERIAL && !CONFIG_UART_VND$" files &&
	grep "^drivers/serial/serial_handlers.c	CONFIG_SERIAL && CONFIG_USERSPACE$" files &&
	grep "^drivers/ethernet/eth.c	CONFIG_ETH_DRIVER || CONFIG_MDIO$" files &&
	grep "^drivers/ethernet/eth_common.c	CONFIG_ETH_DRIVER || CONFIG_MDIO$" files &&
	grep "^subsys/net_l2/l2.c	CONFIG_NET_L2$" files &&
	grep "^subsys/unused/unused.c	false$" files &&
	grep "^subsys/net/no_l2.c	!CONFIG_NET_L2$" files &&
	grep "^subsys/net/shell.c	CONFIG_NET_L2 && CONFIG_NET_SHELL && CONFIG_USERSPACE$" files &&
	grep "^subsys/net/plain.c	!(!CONFIG_NET_L2 || CONFIG_NET_SHELL && CONFIG_USERSPACE)$" files &&
	grep "^subsys/net/soc.c	\[\${SOC_NAME} STREQUAL vnd\]$" files &&
	grep "^kernel/device.c	true$" files &&
	grep "^kernel/futex.c	CONFIG_USERSPACE$" files &&
	grep "^kernel/poll.c	CONFIG_POLL$" files &&
	# a directory only a variable names (${BOARD_DIR}) is not followed
	grep "^boards/vnd/board/board.c	false$" files
'

test_expect_success 'a block the file condition makes dead: kbuild cause' '
	test_expect_code 1 git undertaker --no-notes base >out &&
	grep "^drivers/serial/uart_vnd.c:1: dead block B0 (kbuild, global): #ifndef CONFIG_SERIAL$" out
'

test_expect_success 'a commit that changes a CMakeLists.txt gets the conditions it gives' '
	echo "zephyr_library_sources_ifdef(CONFIG_USERSPACE user.c)" >>drivers/serial/CMakeLists.txt &&
	write_file drivers/serial/user.c <<-\EOF &&
	#ifndef CONFIG_USERSPACE
	int never;
	#endif
	EOF
	git add drivers/serial && test_tick && git commit -q -m user &&
	test_expect_code 1 git undertaker --no-notes base..HEAD >out &&
	grep "^drivers/serial/user.c:1: dead block B0 (kbuild, global): #ifndef CONFIG_USERSPACE$" out
'

test_done
