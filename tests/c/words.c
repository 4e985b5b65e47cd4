/* A word counter of the size people write in an afternoon: at k = 5 its
   k-path suite has hundreds of tests, a branch suite a handful. */
int count_words(const char *s)
{
    int n = 0, in_word = 0;
    for (int i = 0; s[i] != '\0'; i++) {
        if (s[i] == ' ' || s[i] == '\t')
            in_word = 0;
        else if (!in_word) {
            in_word = 1;
            n++;
        }
    }
    return n;
}
