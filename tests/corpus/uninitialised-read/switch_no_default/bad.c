enum shape { CIRCLE, SQUARE, TRIANGLE };

double area(enum shape s, double a)
{
    double r;
    switch (s) {
    case CIRCLE:
        r = 3.14159 * a * a;
        break;
    case SQUARE:
        r = a * a;
        break;
    case TRIANGLE:
        break;
    }
    return r; /* BUG(uninitialised-read) */
}
