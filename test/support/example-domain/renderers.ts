/** The example domain's terminal renderer: the notes answer prints its own note (as earnings' tables do). */
import type { Renderer } from '../../../src/output/types.js';

export const notesView: Renderer = {
  name: 'example-notes',
  canRender: (_o, rc) => rc.format === 'table' && !rc.fields && !rc.wide,
  render: (out) => {
    const note = typeof out.envelope.meta.note === 'string' ? `${out.envelope.meta.note}\n` : '';
    const rows = Array.isArray(out.envelope.data) ? out.envelope.data : [];
    return `${note}${rows.length} notes\n`;
  },
};
