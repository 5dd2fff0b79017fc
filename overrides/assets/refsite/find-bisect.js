// The one binary search of the in-page search: matches, text nodes and elements are all kept in
// document order, so "the first one at or past a point" is always a search over a sorted list.

/**
 * The lowest index in [0, length) for which `isPast(index)` holds, or `length` if none does.
 * `isPast` must be monotonic: false for a prefix, true for the rest.
 */
export function firstIndexWhere(length, isPast) {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (isPast(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}
