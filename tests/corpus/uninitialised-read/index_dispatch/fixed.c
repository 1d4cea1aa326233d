/* The four items of a record read into four named corners: the loop's counter says which one each is. */
#include <stdio.h>

int read_item(FILE *in, int which); /* item which of the record, -1 when missing */

int read_box(FILE *in, int *area)
{
    int x0, y0, x1, y1;
    for (int i = 0; i < 4; i++) {
        int e = read_item(in, i);
        if (e < 0) {
            return -1;
        }
        if (i == 0) {
            x0 = e;
        } else if (i == 1) {
            y0 = e;
        } else if (i == 2) {
            x1 = e;
        } else {
            y1 = e;
        }
    }
    *area = (x1 - x0) * (y1 - y0);
    return 0;
}
