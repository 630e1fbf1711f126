/** The food-hygiene domain's answers with a renderer of their own, at their longest, at 80 columns (issue 37; test/support/commands-80.ts). */
import { rendererCases } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-food-hygiene-', 'food-hygiene');

rendererCases(
  fx,
  {
    'food-hygiene.establishments': [['food-hygiene', 'search', '--near', '51.1856,-0.6115', '--radius-km', '1']],
    'food-hygiene.statistics': [['food-hygiene', 'stats', '--postcode', 'LS6', '--chart']],
  },
  { domain: 'food-hygiene' },
);
