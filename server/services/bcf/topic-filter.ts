import { filter as parseFilter, query as parseQuery } from 'odata-v4-parser';
import { badRequest } from '../errors.js';
import { parseBcfDate } from './versions.js';

/**
 * The OData options of a topic list (seed 001) turned into SQL over `bcf_topics t`:
 * `$filter` (eq, ne, gt, ge, lt, le, and, or, not, parentheses; `contains(labels, 'x')`
 * as BCF 2.1 writes it and `labels/any(l: l eq 'x')` as 3.0 does, both in every version;
 * contains/startswith/endswith on text fields), `$orderby` (with desc), `$top`, `$skip`.
 * odata-v4-parser reads the expressions; this module only walks its tree, so anything it
 * cannot express in SQL is a 400 that names it. Values are always bound parameters.
 */
type FieldKind = 'text' | 'user' | 'date' | 'integer' | 'labels';

/** The fields a filter may test, and their columns. */
const FIELDS: Record<string, { column: string; kind: FieldKind }> = {
  topic_status: { column: 't.topic_status', kind: 'text' },
  topic_type: { column: 't.topic_type', kind: 'text' },
  stage: { column: 't.stage', kind: 'text' },
  priority: { column: 't.priority', kind: 'text' },
  title: { column: 't.title', kind: 'text' },
  description: { column: 't.description', kind: 'text' },
  creation_author: { column: 't.creation_author', kind: 'user' },
  modified_author: { column: 't.modified_author', kind: 'user' },
  assigned_to: { column: 't.assigned_to', kind: 'user' },
  creation_date: { column: 't.creation_date', kind: 'date' },
  modified_date: { column: 't.modified_date', kind: 'date' },
  due_date: { column: 't.due_date', kind: 'date' },
  index: { column: 't.index', kind: 'integer' },
  platform_issue_number: { column: 't.issue_number', kind: 'integer' },
  labels: { column: 't.labels', kind: 'labels' },
};

/** The fields `$orderby` takes (seed 001: creation_date, modified_date, index; and the issue number). */
const SORTABLE = ['creation_date', 'modified_date', 'index', 'platform_issue_number'];

// The parser's tree, as far as this module reads it.
interface Node {
  type: string;
  raw: string;
  value: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const COMPARISONS: Record<string, string> = {
  EqualsExpression: '=',
  NotEqualsExpression: '<>',
  LesserThanExpression: '<',
  LesserOrEqualsExpression: '<=',
  GreaterThanExpression: '>',
  GreaterOrEqualsExpression: '>=',
};

/** Nodes that only wrap the one below them. */
const WRAPPERS = new Set(['CommonExpression', 'BoolCommonExpression', 'BoolParenExpression', 'ParenExpression', 'LambdaPredicateExpression', 'MemberExpression', 'FirstMemberExpression']);

type Operand = { field: string } | { variable: string } | { literal: Literal };
type Literal = { type: 'string'; value: string } | { type: 'date'; value: Date } | { type: 'number'; value: number } | { type: 'null' } | { type: 'boolean'; value: boolean };

/** A WHERE condition and its parameters, numbered from `first`. */
export interface SqlCondition {
  where: string;
  params: unknown[];
}

class FilterWriter {
  readonly params: unknown[] = [];
  /** The lambda variable in scope (inside labels/any), and the SQL name it stands for. */
  private variable: string | null = null;

  constructor(private readonly first: number) {}

  private bind(value: unknown): string {
    this.params.push(value);
    return `$${this.first + this.params.length - 1}`;
  }

  condition(node: Node): string {
    if (WRAPPERS.has(node.type) && node.value?.type) return this.condition(node.value);
    switch (node.type) {
      case 'AndExpression':
        return `(${this.condition(node.value.left)} AND ${this.condition(node.value.right)})`;
      case 'OrExpression':
        return `(${this.condition(node.value.left)} OR ${this.condition(node.value.right)})`;
      case 'NotExpression':
        return this.negate(node.value);
      case 'MethodCallExpression':
        return this.method(node);
      case 'PropertyPathExpression':
        return this.lambda(node);
      default:
        if (COMPARISONS[node.type]) return this.comparison(node, COMPARISONS[node.type]);
        throw badRequest(`$filter: ${JSON.stringify(node.raw)} is not a condition this API evaluates (use eq, ne, gt, ge, lt, le, and, or, not, contains(labels, '...') or labels/any(l: l eq '...'))`);
    }
  }

  /**
   * `not` binds tighter than `and` and `or`, but odata-v4-parser reads `not A and B` as
   * `not (A and B)`: the negation goes to the leftmost operand of what it took.
   */
  private negate(node: Node): string {
    const op = { AndExpression: 'AND', OrExpression: 'OR' }[node.type];
    if (!op) return `(NOT ${this.condition(node)})`;
    return `(${this.negate(node.value.left)} ${op} ${this.condition(node.value.right)})`;
  }

  private operand(node: Node): Operand {
    if (WRAPPERS.has(node.type) && node.value?.type) return this.operand(node.value);
    if (node.type === 'Literal') return { literal: literal(node) };
    if (node.type === 'LambdaVariableExpression') {
      if (node.value.name !== this.variable) throw badRequest(`$filter: ${node.value.name} is not the lambda's variable`);
      return { variable: node.value.name };
    }
    if (node.type === 'PropertyPathExpression' && node.value.type === 'ODataIdentifier') {
      const name = node.value.value.name as string;
      if (!FIELDS[name]) throw badRequest(`$filter: unknown field ${JSON.stringify(name)} (fields: ${Object.keys(FIELDS).join(', ')})`);
      return { field: name };
    }
    throw badRequest(`$filter: ${JSON.stringify(node.raw)} is not a field or a value this API evaluates`);
  }

  private comparison(node: Node, op: string): string {
    const [left, right] = [this.operand(node.value.left), this.operand(node.value.right)];
    // Either side may be the field: `'x' eq topic_status` reads as `topic_status eq 'x'` with the operator turned.
    if ('literal' in left && !('literal' in right)) return this.compare(right, TURNED[op], left.literal, node);
    if ('literal' in right && !('literal' in left)) return this.compare(left, op, right.literal, node);
    throw badRequest(`$filter: ${JSON.stringify(node.raw)} must compare a field with a value`);
  }

  private compare(subject: { field: string } | { variable: string }, op: string, value: Literal, node: Node): string {
    if ('variable' in subject) {
      if (value.type !== 'string' || (op !== '=' && op !== '<>')) throw badRequest(`$filter: ${JSON.stringify(node.raw)}: a label is compared with eq or ne and a string`);
      return `${LABEL} ${op} ${this.bind(value.value)}`;
    }
    const { column, kind } = FIELDS[subject.field];
    if (value.type === 'null') {
      if (op !== '=' && op !== '<>') throw badRequest(`$filter: ${JSON.stringify(node.raw)}: null is compared with eq or ne only`);
      return `${column} IS ${op === '=' ? '' : 'NOT '}NULL`;
    }
    const wrong = (what: string) => badRequest(`$filter: ${JSON.stringify(node.raw)}: ${subject.field} is compared with ${what}`);
    switch (kind) {
      case 'labels':
        throw badRequest(`$filter: ${JSON.stringify(node.raw)}: test labels with contains(labels, '...') or labels/any(l: l eq '...')`);
      case 'date':
        if (value.type !== 'date') throw wrong('a date-time such as 2024-05-01T12:00:00+02:00');
        return `${column} ${op} ${this.bind(value.value.toISOString())}::timestamptz`;
      case 'integer':
        if (value.type !== 'number' || !Number.isInteger(value.value)) throw wrong('an integer');
        return `${column} ${op} ${this.bind(value.value)}`;
      case 'user':
        // User ids are e-mail addresses: compared without case.
        if (value.type !== 'string') throw wrong('a string');
        return `lower(${column}) ${op} lower(${this.bind(value.value)})`;
      default:
        if (value.type !== 'string') throw wrong('a string');
        return `${column} ${op} ${this.bind(value.value)}`;
    }
  }

  private method(node: Node): string {
    const name = node.value.method as string;
    const args = (node.value.parameters as Node[]).map((p) => this.operand(p));
    const [subject, value] = args;
    if (args.length !== 2 || !subject || !('field' in subject) || !('literal' in value) || value.literal.type !== 'string') {
      throw badRequest(`$filter: ${JSON.stringify(node.raw)}: ${name} takes a field and a string`);
    }
    const { column, kind } = FIELDS[subject.field];
    if (kind === 'labels') {
      if (name !== 'contains') throw badRequest(`$filter: ${JSON.stringify(node.raw)}: labels take contains(labels, '...')`);
      return `${this.bind(value.literal.value)} = ANY(${column})`;
    }
    if (kind !== 'text' && kind !== 'user') throw badRequest(`$filter: ${JSON.stringify(node.raw)}: ${name} applies to text fields`);
    const pattern = { contains: (v: string) => `%${v}%`, startswith: (v: string) => `${v}%`, endswith: (v: string) => `%${v}` }[name];
    if (!pattern) throw badRequest(`$filter: the function ${name} is not supported (contains, startswith, endswith)`);
    return `${column} ILIKE ${this.bind(pattern(value.literal.value.replace(/[\\%_]/g, (c) => `\\${c}`)))}`;
  }

  /** labels/any(l: <condition on l>): some label of the topic meets the condition. */
  private lambda(node: Node): string {
    const field = node.value.current?.value?.name as string;
    const any = node.value.next?.value;
    if (field !== 'labels' || any?.type !== 'AnyExpression') throw badRequest(`$filter: ${JSON.stringify(node.raw)} is not supported (only labels/any(...))`);
    if (!any.value.variable) return 'cardinality(t.labels) > 0';
    const outer = this.variable;
    this.variable = any.value.variable.value.name;
    try {
      return `EXISTS (SELECT 1 FROM unnest(t.labels) AS ${LABEL} WHERE ${this.condition(any.value.predicate)})`;
    } finally {
      this.variable = outer;
    }
  }
}

/** The SQL name of the label a lambda tests (one level of labels/any: they do not nest). */
const LABEL = 'label_value';

const TURNED: Record<string, string> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

function literal(node: Node): Literal {
  const raw = node.raw;
  switch (node.value) {
    case 'null':
      return { type: 'null' };
    case 'Edm.String':
      return { type: 'string', value: decodeURIComponent(raw.slice(1, -1)).replace(/''/g, "'") };
    case 'Edm.Boolean':
      return { type: 'boolean', value: raw.toLowerCase() === 'true' };
    case 'Edm.DateTimeOffset':
    case 'Edm.Date': {
      // Within the years the database keeps (parseBcfDate): -271821-04-20 parsed here and failed the query.
      const value = parseBcfDate(raw);
      if (Number.isNaN(value.getTime())) throw badRequest(`$filter: ${raw} is not a date (years 1 to 9999)`);
      return { type: 'date', value };
    }
    default:
      if (/^Edm\.(S?Byte|Int16|Int32|Int64|Decimal|Double|Single)$/.test(node.value)) return { type: 'number', value: Number(raw) };
      throw badRequest(`$filter: the value ${raw} (${node.value}) is not supported`);
  }
}

/**
 * What the parser reads: string literals percent-encoded (its grammar is the URL's, where
 * `%`, `#`, `?` or `"` cannot stand as they are; `literal` decodes them), and date-time
 * offsets as OData writes them (+00:00; BCF writes +0000).
 */
const forParser = (text: string) =>
  text.replace(/'((?:[^']|'')*)'|(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)([+-]\d{2})(\d{2})(?!\d)/g, (match, content: string | undefined, time, hours, minutes) =>
    content !== undefined ? `'${encodeURIComponent(content)}'` : `${time}${hours}:${minutes}`,
  );

/** `$filter` as SQL over `bcf_topics t`, its parameters numbered from `first`. */
export function filterCondition(text: string, first: number): SqlCondition {
  let tree: Node;
  try {
    tree = parseFilter(forParser(text)) as unknown as Node;
  } catch (error) {
    throw badRequest(`$filter is not valid OData: ${(error as Error).message} in ${JSON.stringify(text)}`);
  }
  if (!tree) throw badRequest(`$filter is not valid OData: ${JSON.stringify(text)}`);
  const writer = new FilterWriter(first);
  return { where: writer.condition(tree), params: writer.params };
}

/** `$orderby` as an ORDER BY list over `bcf_topics t` (the issue number last, so pages are stable). */
export function orderBy(text: string | undefined): string {
  const keys: string[] = [];
  if (text !== undefined && text.trim() !== '') {
    let tree: Node;
    try {
      tree = parseQuery(`$orderby=${text}`) as unknown as Node;
    } catch (error) {
      throw badRequest(`$orderby is not valid OData: ${(error as Error).message} in ${JSON.stringify(text)}`);
    }
    for (const item of tree.value.options[0].value.items as Node[]) {
      const name = item.value.expr.raw as string;
      if (!SORTABLE.includes(name)) throw badRequest(`$orderby: topics are sorted by ${SORTABLE.join(', ')}, not ${JSON.stringify(name)}`);
      keys.push(`${FIELDS[name].column} ${item.value.direction === -1 ? 'DESC' : 'ASC'} NULLS LAST`);
    }
  }
  return [...keys, 't.issue_number'].join(', ');
}

/** `$select`'s property names. */
export function selectNames(text: string): string[] {
  let tree: Node;
  try {
    tree = parseQuery(`$select=${text}`) as unknown as Node;
  } catch (error) {
    throw badRequest(`$select is not valid OData: ${(error as Error).message} in ${JSON.stringify(text)}`);
  }
  return (tree.value.options[0].value.items as Node[]).map((item) => item.raw);
}
