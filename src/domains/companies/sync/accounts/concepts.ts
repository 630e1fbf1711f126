/**
 * The concept map (data/companies/accounts-concepts.yaml) and the lookup tables the extractor builds from
 * it once per process: which concept gives which headline figure, at what priority, and which facts are
 * kept at all. Which concept gives which figure is data, not code (docs/companies.md, "Accounts").
 */
import { loadData } from '../../../../data.js';

export type FigureName =
  | 'revenue' | 'cost_of_sales' | 'gross_profit' | 'profit_before_tax' | 'fixed_assets' | 'current_assets'
  | 'prepayments_outside_current_assets' | 'called_up_share_capital_not_paid' | 'net_current_assets'
  | 'total_assets_less_current_liabilities' | 'total_assets_reported' | 'cash' | 'net_assets' | 'employees'
  | 'directors_remuneration';

interface FigureSpec {
  kind: 'money' | 'count';
  period: 'duration' | 'instant';
  concepts: string[];
}

export interface ConceptMap {
  figures: Record<FigureName, FigureSpec>;
  current_liabilities: {
    concepts: string[];
    dimension_members: Record<string, string[]>;
    undimensioned_concepts: string[];
  };
  ignored_dimensions: string[];
  metadata: {
    accounts_type_facts: string[];
    accounts_type_dimension: string;
    accounts_type_members: Record<string, string>;
    standard_facts: string[];
    standard_dimension: string;
    standard_members: Record<string, string>;
    micro_standards: string[];
    dormant_facts: string[];
    company_number_facts: string[];
    company_name_facts: string[];
    balance_sheet_date_facts: string[];
  };
}

/** Lookup tables built once per process from the concept map. */
export interface Compiled {
  map: ConceptMap;
  /** concept local name -> [figure, priority] pairs (a concept may serve two figures). */
  byConcept: Map<string, Array<{ figure: FigureName; priority: number }>>;
  clConcepts: Set<string>;
  clUndim: Set<string>;
  ignoredDims: Set<string>;
  /** Every concept whose facts the extractor keeps (headline, current liabilities, metadata). */
  wanted: Set<string>;
}

let compiled: Compiled | undefined;

export function conceptMap(): ConceptMap {
  return loadData<ConceptMap>('companies/accounts-concepts');
}

export function compile(): Compiled {
  if (compiled) return compiled;
  const map = conceptMap();
  const byConcept = new Map<string, Array<{ figure: FigureName; priority: number }>>();
  for (const [figure, spec] of Object.entries(map.figures) as Array<[FigureName, FigureSpec]>) {
    spec.concepts.forEach((c, i) => {
      const l = byConcept.get(c) ?? [];
      l.push({ figure, priority: i });
      byConcept.set(c, l);
    });
  }
  const m = map.metadata;
  const wanted = new Set<string>([
    ...byConcept.keys(), ...map.current_liabilities.concepts, ...map.current_liabilities.undimensioned_concepts,
    ...m.accounts_type_facts, ...m.standard_facts, ...m.dormant_facts, ...m.company_number_facts,
    ...m.company_name_facts, ...m.balance_sheet_date_facts, 'DateAuthorisationFinancialStatementsForIssue',
  ]);
  compiled = {
    map, byConcept, wanted,
    clConcepts: new Set(map.current_liabilities.concepts),
    clUndim: new Set(map.current_liabilities.undimensioned_concepts),
    ignoredDims: new Set(map.ignored_dimensions),
  };
  return compiled;
}
