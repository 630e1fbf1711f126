/**
 * A streaming reader of the FSA's per-authority XML files (FHRS{code}en-GB.xml) with saxes: memory flat
 * in the file's size (one establishment's fields at a time), whatever the line breaks (the files are one
 * line). Element order and names: docs/food-hygiene.md ("The files").
 *
 *   FHRSEstablishment/Header/{ExtractDate, ItemCount, ReturnCode}
 *   FHRSEstablishment/EstablishmentCollection/EstablishmentDetail/{FHRSID, ..., Scores/{...}, Geocode/{...}}
 *
 * A file that is not well-formed XML, or whose root is not FHRSEstablishment, throws MalformedFileError
 * (with the line and column saxes reached); the caller turns that into a reject naming the authority.
 */
import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';
import { READER_LIMITS, type ReaderLimits } from '../../../../sync/formats/bounds.js';

/** One EstablishmentDetail: its leaf elements' text by name (`Scores.Hygiene`, `Geocode.Latitude` inside groups). */
export type RawEstablishment = Record<string, string>;

export interface FileHeader {
  extractDate?: string;
  itemCount?: string;
  returnCode?: string;
}

export class MalformedFileError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
    /** EstablishmentDetail elements read before the fault. */
    readonly establishmentsRead: number,
  ) {
    super(message);
    this.name = 'MalformedFileError';
  }
}

/** The keys of a grouped leaf, made once (`Scores.Hygiene`), not per element. */
const GROUP_KEYS: Record<string, Record<string, string>> = {
  Scores: { Hygiene: 'Scores.Hygiene', Structural: 'Scores.Structural', ConfidenceInManagement: 'Scores.ConfidenceInManagement' },
  Geocode: { Longitude: 'Geocode.Longitude', Latitude: 'Geocode.Latitude' },
};

/**
 * A record with every field of the files' element order present from the start: one object shape for
 * all establishments (a record grown key by key turns into a slow dictionary; measured 2x the parse).
 */
function newRecord(): RawEstablishment {
  return {
    FHRSID: undefined, LocalAuthorityBusinessID: undefined, BusinessName: undefined, BusinessType: undefined, BusinessTypeID: undefined,
    AddressLine1: undefined, AddressLine2: undefined, AddressLine3: undefined, AddressLine4: undefined, PostCode: undefined,
    RatingValue: undefined, RatingKey: undefined, RatingDate: undefined, LocalAuthorityCode: undefined, LocalAuthorityName: undefined,
    LocalAuthorityWebSite: undefined, LocalAuthorityEmailAddress: undefined, 'Scores.Hygiene': undefined, 'Scores.Structural': undefined,
    'Scores.ConfidenceInManagement': undefined, SchemeType: undefined, NewRatingPending: undefined, 'Geocode.Longitude': undefined,
    'Geocode.Latitude': undefined, RightToReply: undefined,
  } as unknown as RawEstablishment;
}
const HEADER_FIELDS: Record<string, keyof FileHeader> = { ExtractDate: 'extractDate', ItemCount: 'itemCount', ReturnCode: 'returnCode' };

/**
 * A copy of `s` that holds nothing else. The parser's texts are V8 sliced strings pointing into the
 * 256 KiB chunk they came from: one kept past the parse (a file's header, its authority's name) kept the
 * whole chunk alive, 256 KiB per file for the rest of the sync (measured: the heap after GC grew by
 * 250 KB per file, 100 MB over 400 files). Use it for every text kept beyond the callback.
 */
export function own(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/**
 * Read one file, calling `onEstablishment` for each EstablishmentDetail in file order (synchronously,
 * inside the parser's callback: copy what you keep). Returns the header and the number of establishments.
 */
export async function parseAuthorityFile(
  path: string,
  onEstablishment: (e: RawEstablishment, index: number) => void,
  limits: Pick<ReaderLimits, 'fieldChars'> = READER_LIMITS,
): Promise<{ header: FileHeader; count: number }> {
  const parser = new SaxesParser({ position: true });
  const header: FileHeader = {};
  let count = 0;
  let rootSeen = false;
  let inHeader = false;
  let rec: RawEstablishment | null = null;
  let group: string | null = null;
  let leaf: string | null = null;
  let buf = '';
  let failure: Error | undefined;

  parser.on('error', (e) => {
    failure ??= e;
    throw e;
  });
  parser.on('opentag', (tag: { name: string }) => {
    const name = tag.name;
    if (!rootSeen) {
      rootSeen = true;
      if (name !== 'FHRSEstablishment') parser.fail(`the root element is <${name}>, not <FHRSEstablishment>`);
      return;
    }
    if (rec) {
      // the two groups by comparison, not a Set: a Set hashes every element name, a fresh string each time
      if (name === 'Scores' || name === 'Geocode') group = name;
      else {
        leaf = name;
        buf = '';
      }
    } else if (name === 'EstablishmentDetail') {
      rec = newRecord();
      group = null;
      leaf = null;
    } else if (name === 'Header') inHeader = true;
    else if (inHeader) {
      leaf = name;
      buf = '';
    }
  });
  parser.on('text', (t) => {
    if (leaf !== null) buf += t;
  });
  parser.on('closetag', (tag: { name: string }) => {
    const name = tag.name;
    if (leaf !== null && name === leaf) {
      if (rec) rec[group ? (GROUP_KEYS[group]?.[leaf] ?? `${group}.${leaf}`) : leaf] = buf;
      else {
        const h = HEADER_FIELDS[leaf];
        if (h) header[h] = own(buf);
      }
      leaf = null;
      return;
    }
    if (name === group) group = null;
    else if (name === 'EstablishmentDetail' && rec) {
      onEstablishment(rec, count++);
      rec = null;
    } else if (name === 'Header') inHeader = false;
  });

  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  let first = true;
  // characters since the last '<': saxes holds a text until its next tag, so a run past the field limit is
  // refused before it is written to the parser (memory bounded by the limit and a chunk; issue 37)
  let run = 0;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      run = textRun(chunk, run, limits.fieldChars);
      parser.write(first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk);
      first = false;
    }
    parser.close();
    if (!rootSeen) throw new Error('the file holds no XML element');
  } catch (e) {
    stream.destroy();
    const err = failure ?? (e as Error);
    throw new MalformedFileError(cleanMessage(err.message), parser.line, parser.column, count);
  }
  return { header, count };
}

/**
 * The characters without markup at the end of `chunk`, given `run` before it; throws when a run (one that
 * continues from the chunks before, or one inside the chunk when the chunk is longer than the limit) is
 * longer than `limit`. With the default limit (1 Mi characters) over 256 KiB chunks only the ends are looked at.
 */
export function textRun(chunk: string, run: number, limit: number): number {
  const fail = (): never => {
    throw new Error(`a text of more than ${limit} characters without markup (the limit of a field): not an FSA file`);
  };
  const first = chunk.indexOf('<');
  if (first < 0) {
    if (run + chunk.length > limit) fail();
    return run + chunk.length;
  }
  if (run + first > limit) fail();
  let last = first;
  if (chunk.length > limit) {
    for (let q = chunk.indexOf('<', first + 1); q >= 0; q = chunk.indexOf('<', q + 1)) {
      if (q - last - 1 > limit) fail();
      last = q;
    }
  } else last = chunk.lastIndexOf('<');
  const tail = chunk.length - last - 1;
  if (tail > limit) fail();
  return tail;
}

/** saxes prefixes its messages with `file:line:column: `; the caller names the file. */
function cleanMessage(m: string): string {
  return m.replace(/^[^:]*:\d+:\d+: /, '');
}
