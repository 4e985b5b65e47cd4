/* Replays files or directories of inputs through LLVMFuzzerTestOneInput,
   for a plain (non-libFuzzer) build: gcc -O0 --coverage cov_driver.c
   fuzz_NAME.c, then ./driver CORPUS_DIR [FILE...]. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (f == NULL)
        return;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(n > 0 ? (size_t)n : 1);
    if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n > 0 ? (size_t)n : 0);
    free(buf);
}

int main(int argc, char **argv)
{
    int i, count = 0;
    for (i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            while (d != NULL && (e = readdir(d)) != NULL) {
                char path[4096];
                if (e->d_name[0] == '.')
                    continue;
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                run_file(path);
                count++;
            }
            if (d != NULL)
                closedir(d);
        } else {
            run_file(argv[i]);
            count++;
        }
    }
    fprintf(stderr, "replayed %d input(s)\n", count);
    return 0;
}
