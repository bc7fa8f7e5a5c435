# Entry points: `make run` and `make check` (see README.md). CMake does the real build.
MAKEFLAGS += --no-print-directory
JOBS    ?= 2
BUILD   ?= build
SANBUILD = build-san
FUZZBUILD= build-fuzz
FUZZ_SECONDS ?= 15

.PHONY: all deps build run check test test-san fuzz bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/iolab run --default

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-san: deps
	@cmake -S . -B $(SANBUILD) -DCMAKE_BUILD_TYPE=Debug -DIOLAB_SANITIZE=ON >/dev/null
	@cmake --build $(SANBUILD) -j $(JOBS)
	cd $(SANBUILD) && ctest --output-on-failure -j $(JOBS)

fuzz: deps
	@CC=clang cmake -S . -B $(FUZZBUILD) -DCMAKE_BUILD_TYPE=Debug -DIOLAB_FUZZ=ON >/dev/null
	@cmake --build $(FUZZBUILD) -j $(JOBS) --target fuzzers
	@scripts/run-fuzzers.sh $(FUZZBUILD) $(FUZZ_SECONDS) $(JOBS)

check: fuzz test-san test

bench: build
	bench/vs-fio.sh
	bench/sim-speed.sh
	bench/sim-validate-speed.sh
	bench/scale-out.sh

clean:
	rm -rf $(BUILD) $(SANBUILD) $(FUZZBUILD)
