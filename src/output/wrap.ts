/**
 * Text to a terminal's width: wrapped at word boundaries. No imports, so a domain's renderer may use it
 * without loading the table machinery.
 */

/** Display width: characters, colour codes not counted. */
export const displayWidth = (s: string): number => [...s.replace(/\u001b\[[0-9;]*m/g, '')].length;

/**
 * Wrap text to `width` display characters a line at word boundaries (spaces); a word longer than the
 * width is broken. Existing line breaks are kept; `indent` starts every line after the first.
 */
export function wrapWords(text: string, width: number, indent = ''): string {
  if (width <= 0) return text;
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    const room = () => Math.max(1, width - (out.length ? displayWidth(indent) : 0));
    const push = () => {
      out.push(out.length ? `${indent}${line}` : line);
      line = '';
    };
    const words = para.split(' ');
    if (para === '') push();
    for (const word of words) {
      let w = word;
      const candidate = line === '' ? w : `${line} ${w}`;
      if (displayWidth(candidate) <= room()) {
        line = candidate;
        continue;
      }
      if (line !== '') push();
      while (displayWidth(w) > room()) {
        const chars = [...w];
        line = chars.slice(0, room()).join('');
        w = chars.slice(room()).join('');
        push();
      }
      line = w;
    }
    if (line !== '') push();
  }
  return out.join('\n');
}
