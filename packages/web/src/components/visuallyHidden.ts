/**
 * `sx` of text for screen readers only: column headers without visible text, live regions. Lengths are strings
 * because in `sx` a number up to 1 is a fraction of the parent (width 1 = 100%).
 */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
