#ifndef WIDGET_H
#define WIDGET_H

struct widget { const char *label; int width; };

void widget_set_label(struct widget *w, const char *label);

#endif
