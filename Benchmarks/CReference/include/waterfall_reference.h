#ifndef FALLS_WATERFALL_REFERENCE_H
#define FALLS_WATERFALL_REFERENCE_H

#include <stddef.h>

/// The plain waterfall (shortest column, leftmost on ties) written in C, as the benchmark's
/// reference for what the machine can do. Writes x, y, width, height per item into `frames`
/// (4 * count doubles). `bottoms` needs room for `columns` doubles. Returns the content height.
double falls_reference_waterfall(const double *widths, const double *heights, size_t count,
                                 int columns, double width, double spacing, double inset,
                                 double *bottoms, double *frames);

#endif

#ifndef FALLS_WATERFALL_REFERENCE_ALLOC
#define FALLS_WATERFALL_REFERENCE_ALLOC
/// The same loop writing into frames it allocates (and frees) itself, as falls allocates its
/// elements: the fair comparison, page faults included.
double falls_reference_waterfall_allocating(const double *widths, const double *heights,
                                            size_t count, int columns, double width,
                                            double spacing, double inset);
#endif
