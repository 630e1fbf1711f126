/** The earnings domain's answers with a renderer of their own, at their longest, at 80 columns (issue 37; test/support/commands-80.ts). */
import { rendererCases } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-earnings-', 'earnings');

rendererCases(
  fx,
  {
    'earnings.percentile': [['earnings', 'rank', '42000', '--region', 'North West']],
    'earnings.regions': [['earnings', 'regions', 'North West', '--basis', 'residence']],
    'earnings.industries': [['earnings', 'industries', '62', '--measure', 'hourly_excluding_overtime']],
    'earnings.occupations': [['earnings', 'occupations', '2134', '--measure', 'weekly_gross']],
  },
  { domain: 'earnings' },
);
