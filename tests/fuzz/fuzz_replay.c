/* fuzz_replay: runs files (or every file in directories) through the fuzz entry point,
 * so the seed corpus and any crash file replay under gcc, sanitizers and valgrind
 * without libFuzzer. Prints one line per file; exit 0 when all ran. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		fprintf(stderr, "fuzz_replay: cannot open %s\n", path);
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (buf == NULL)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	printf("ok %s (%zu bytes)\n", path, len);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	int rc = 0, files = 0;

	for (int i = 1; i < argc; i++) {
		struct stat sb;
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			rc |= run_file(argv[i]) != 0;
			files++;
			continue;
		}
		d = opendir(argv[i]);
		while (d != NULL && (e = readdir(d)) != NULL) {
			char p[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
			rc |= run_file(p) != 0;
			files++;
		}
		if (d != NULL)
			closedir(d);
	}
	if (files == 0) {
		fprintf(stderr, "fuzz_replay: no input files\n");
		return 1;
	}
	return rc;
}
