# OpenBench (and anyone) builds Kestrel with `make`, naming the binary with
# EXE= (`make EXE=/path/to/name`); the default target does exactly that.
# CPU features are detected at run time, so no -march flag is needed.

EXE ?= kestrel
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) build --release --bin kestrel
	cp target/release/kestrel $(EXE)

clean:
	$(CARGO) clean
