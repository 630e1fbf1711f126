/** The property domain's answers with a renderer of their own, at their longest, at 80 columns (issue 37; test/support/commands-80.ts). */
import { rendererCases } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-property-', 'property');

rendererCases(
  fx,
  {
    'property.hpi': [['property', 'hpi', '--region', 'London', '--from', '2015-01-01', '--all', '--chart']],
  },
  { domain: 'property' },
);
