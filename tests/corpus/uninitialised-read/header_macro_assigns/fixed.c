/* A tokenizer over UTF-8 (SQLite's ICU extension): U8_NEXT comes from <unicode/utf8.h>, a header
 * the checker did not read; the macro assigns the code point to its last argument. */
#include <unicode/utf8.h>

int is_separator(int c);

int count_words(const char *z, int n)
{
    int i = 0;
    int words = 0;
    int in_word = 0;
    while (i < n) {
        int c;
        U8_NEXT(z, i, n, c);
        if (is_separator(c)) {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            words++;
        }
    }
    return words;
}
