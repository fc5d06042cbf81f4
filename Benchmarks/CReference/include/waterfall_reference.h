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
/// The same loop writing into frames it allocates (and frees) itself with malloc. Below 32 MiB
/// (a million items' frames are 32,000,000 bytes) glibc reuses the freed memory from the second
/// run on, so this mostly measures the loop.
double falls_reference_waterfall_allocating(const double *widths, const double *heights,
                                            size_t count, int columns, double width,
                                            double spacing, double inset);

/// The same loop writing into `bytes_per_item` bytes per item of fresh memory mapped for each
/// run (the first four doubles of each are the frame), so that every page is faulted in as a
/// new array's pages are: with 48, what falls's elements cost the kernel.
double falls_reference_waterfall_fresh(const double *widths, const double *heights,
                                       size_t count, int columns, double width, double spacing,
                                       double inset, size_t bytes_per_item);
#endif
