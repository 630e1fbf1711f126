/** The crime domain's answers with a renderer of their own, at their longest, at 80 columns (issue 37; test/support/commands-80.ts). */
import { rendererCases } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-crime-', 'crime');

rendererCases(
  fx,
  {
    'crime.statistics': [['crime', 'stats', '--lsoa', 'E01000916', '--months', '12', '--chart']],
  },
  { domain: 'crime' },
);
