#include <stdio.h>
#include "widget.h"

void label_row(struct widget *w, int row)
{
    static char text[32];
    snprintf(text, sizeof text, "row %d", row);
    widget_set_label(w, text);
}
