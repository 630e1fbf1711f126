// Types of accounts-gen.mjs (a plain module so that bench/*.bench.mjs can import it too).
export interface AccountsDocOptions {
  company: string;
  name: string;
  bsd: string;
  style?: 'webfiling' | 'iris' | 'full' | 'xbrl';
  cur: Record<string, number>;
  prev?: Record<string, number>;
  accountsType?: string;
  standard?: string;
  dormant?: boolean;
}
export function accountsDocument(o: AccountsDocOptions): string;
export function memberName(company: string, bsd: string, ext?: string, run?: string): string;
export function yearBefore(d: string): string;
