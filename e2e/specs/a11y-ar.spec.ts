import { describeAccessibility } from '../support/a11y-walk.js';

describeAccessibility('ar', { reducedMotion: true });
