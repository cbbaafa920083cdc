# OpenBench (and anyone) builds Kestrel with `make`, naming the binary with
# EXE= (`make EXE=/path/to/name`); the default target does exactly that.
#
# The build is native: .cargo/config.toml sets `-C target-cpu=native`, and
# the slider lookup (PEXT with BMI2, magic multiplication without) is chosen
# at compile time from the CPU that builds, not detected at run time. PEXT
# is 4-12 % faster in perft (docs/measurements.md, "Performance"), and OpenBench builds on
# each worker, so native is right there. A binary for other machines needs
# an explicit target, which replaces the native flag (make passes variables
# given on its command line to cargo's environment):
#   make RUSTFLAGS="-C target-cpu=x86-64-v3"   (BMI2: PEXT)
#   make RUSTFLAGS="-C target-cpu=x86-64-v2"   (no BMI2: magic bitboards)

#
# EVALFILE=<path> builds the binary with that network file built in instead
# of crates/engine/nets/default.nnue (OpenBench passes the net under test
# this way: `make -j EXE=<name> EVALFILE=<absolute path>`). The engine's
# build script reads it as KESTREL_EVALFILE and refuses a missing or
# malformed file, so the build fails with a message rather than testing the
# wrong net.

EXE ?= kestrel
CARGO ?= cargo
EVALFILE ?=

# `make web` builds the engine as WebAssembly for a Web Worker and writes
# target/web/ (the Worker, the module and a UCI console page): see
# scripts/build-web.sh for the toolchain and README.md for serving it.

.PHONY: all clean web

all:
	KESTREL_EVALFILE="$(if $(EVALFILE),$(abspath $(EVALFILE)))" $(CARGO) build --release --bin kestrel
	cp $(or $(CARGO_TARGET_DIR),target)/release/kestrel $(EXE)

web:
	scripts/build-web.sh

clean:
	$(CARGO) clean
