/* stop.c: the process's request to stop (stop.h). */
#include "iolab/stop.h"

volatile sig_atomic_t iolab_stop_requested;
