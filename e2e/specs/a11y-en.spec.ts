import { describeAccessibility } from '../support/a11y-walk.js';

describeAccessibility('en', { reducedMotion: false });
