#include "waterfall_reference.h"

/* The loop itself: frame i at frames + stride * i (stride >= 4 doubles). */
static double waterfall_strided(const double *widths, const double *heights, size_t count,
                                int columns, double width, double spacing, double inset,
                                double *bottoms, double *frames, size_t stride) {
  double column_width = (width - 2 * inset - (columns - 1) * spacing) / columns;
  for (int c = 0; c < columns; c++) bottoms[c] = -1;  /* -1: empty */
  double lowest = inset;
  for (size_t i = 0; i < count; i++) {
    int best = 0;
    double best_top = bottoms[0] < 0 ? inset : bottoms[0] + spacing;
    for (int c = 1; c < columns; c++) {
      double top = bottoms[c] < 0 ? inset : bottoms[c] + spacing;
      if (top < best_top) { best = c; best_top = top; }
    }
    double h = column_width * heights[i] / widths[i];
    double *frame = frames + stride * i;
    frame[0] = inset + best * (column_width + spacing);
    frame[1] = best_top;
    frame[2] = column_width;
    frame[3] = h;
    bottoms[best] = best_top + h;
    if (bottoms[best] > lowest) lowest = bottoms[best];
  }
  return lowest + inset;
}

double falls_reference_waterfall(const double *widths, const double *heights, size_t count,
                                 int columns, double width, double spacing, double inset,
                                 double *bottoms, double *frames) {
  return waterfall_strided(widths, heights, count, columns, width, spacing, inset, bottoms,
                           frames, 4);
}

#include <stdlib.h>

double falls_reference_waterfall_allocating(const double *widths, const double *heights,
                                            size_t count, int columns, double width,
                                            double spacing, double inset) {
  double *frames = malloc(sizeof(double) * 4 * count);
  double *bottoms = malloc(sizeof(double) * (size_t)columns);
  if (!frames || !bottoms) { free(frames); free(bottoms); return -1; }
  double height = falls_reference_waterfall(widths, heights, count, columns, width, spacing,
                                            inset, bottoms, frames);
  /* Read one frame back so that the writes cannot be optimised away. */
  volatile double sink = frames[4 * (count / 2) + 1];
  (void)sink;
  free(frames);
  free(bottoms);
  return height;
}

#include <sys/mman.h>

double falls_reference_waterfall_fresh(const double *widths, const double *heights,
                                       size_t count, int columns, double width, double spacing,
                                       double inset, size_t bytes_per_item) {
  size_t size = bytes_per_item * count;
  void *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return -1;
  double bottoms[64];
  if (columns > 64) columns = 64;
  size_t stride = bytes_per_item / sizeof(double);
  double *frames = memory;
  double height = waterfall_strided(widths, heights, count, columns, width, spacing, inset,
                                    bottoms, frames, stride);
  volatile double sink = frames[stride * (count / 2) + 1];
  (void)sink;
  munmap(memory, size);
  return height;
}
