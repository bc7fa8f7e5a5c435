/* fuzz_jobfile.c: libFuzzer target for the job-file parser: any bytes must give a job or one
 * error line, never a crash, a leak or undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "iolab/job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct iolab_job job;
	struct iolab_err err;
	if (iolab_job_parse("fuzz.job", text, size % 2, &job, &err) == 0) {
		for (unsigned i = 0; i < job.nrun; i++)
			(void)iolab_config_points(&job.run[i]);
		iolab_job_free(&job);
	} else {
		fuzz_check_error(&err, "fuzz.job"); /* every error names the file */
	}
	free(text);
	return 0;
}
