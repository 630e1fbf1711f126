/** The vehicles domain's answers with a renderer of their own, at their longest, at 80 columns (issue 37; test/support/commands-80.ts). */
import { rendererCases } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-vehicles-', 'vehicles');

rendererCases(
  fx,
  {
    'vehicles.registrations': [['vehicles', 'registrations', '--make', 'TESLA', '--geography', 'GB', '--all', '--chart']],
    'vehicles.licensing': [['vehicles', 'licensing', '--make', 'TESLA', '--geography', 'GB', '--licence-status', 'Licensed', '--all', '--chart']],
    'vehicles.traffic.aadf': [['vehicles', 'traffic', 'aadf', '--count-point', '46069', '--all', '--chart']],
    'vehicles.traffic.local-authority': [['vehicles', 'traffic', 'local-authority', '--local-authority', 'Leeds', '--all', '--chart']],
    'vehicles.traffic.regional': [['vehicles', 'traffic', 'regional', '--region', 'Scotland', '--breakdown', 'vehicle_type', '--all', '--chart']],
  },
  { domain: 'vehicles' },
);
