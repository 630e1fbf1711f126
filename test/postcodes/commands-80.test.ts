/** The postcodes domain's answers with a renderer of their own, at their longest, at 80 columns (issue 37; test/support/commands-80.ts). */
import { rendererCases } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-postcodes-'); // every domain: the area profile joins them all

rendererCases(
  fx,
  {
    'area.profile': [['area', 'LS8 3BS']],
  },
  { domain: 'postcodes' },
);
