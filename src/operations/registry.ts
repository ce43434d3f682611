// Stored operations (schema/operations/*.graphql, sharing fragments from schema/fragments/*.graphql): the
// public contract behind every REST route and MCP tool, parsed and validated against the schema once at boot
// so a broken operation stops the process, not a request.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Kind,
  parse,
  validate,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

export const SCHEMA_DIR = join(import.meta.dirname, '..', '..', 'schema');

export interface StoredOperation {
  name: string;
  file: string;
  /** The operation plus every fragment it uses, ready for execute(). */
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

export type OperationRegistry = ReadonlyMap<string, StoredOperation>;

export interface OperationSource {
  file: string;
  text: string;
}

export class OperationRegistryError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid stored operations:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'OperationRegistryError';
    this.problems = problems;
  }
}

/** Checks a document against the schema; the runtime passes the GraphQL pipeline's (with its limits' rules). */
export type ValidateDocument = (schema: GraphQLSchema, document: DocumentNode) => readonly GraphQLError[];

export function loadOperationRegistry(schema: GraphQLSchema, dir: string = SCHEMA_DIR, validateDocument: ValidateDocument = validate): OperationRegistry {
  return buildOperationRegistry(schema, readGraphqlFiles(join(dir, 'operations')), readGraphqlFiles(join(dir, 'fragments')), validateDocument);
}

function readGraphqlFiles(dir: string): OperationSource[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

/** Each operation source must hold exactly one named operation; fragments come from the shared sources. */
export function buildOperationRegistry(
  schema: GraphQLSchema,
  operations: OperationSource[],
  fragments: OperationSource[] = [],
  validateDocument: ValidateDocument = validate,
): OperationRegistry {
  const problems: string[] = [];
  const fragmentsByName = new Map<string, FragmentDefinitionNode>();
  for (const { file, text } of fragments) {
    for (const definition of parseOrReport(file, text, problems)?.definitions ?? []) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragmentsByName.set(definition.name.value, definition);
      else problems.push(`${file}: fragment files may only define fragments`);
    }
  }
  const registry = new Map<string, StoredOperation>();
  for (const { file, text } of operations) {
    const parsed = parseOrReport(file, text, problems);
    if (!parsed) continue;
    const operation = parsed.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (parsed.definitions.length !== 1 || !operation?.name) {
      problems.push(`${file}: must contain exactly one named operation (shared fragments belong in schema/fragments)`);
      continue;
    }
    const used = collectFragments(operation, fragmentsByName, file, problems);
    const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...used] };
    for (const message of validationProblems(schema, document, validateDocument)) problems.push(`${file}: ${message}`);
    const name = operation.name.value;
    if (registry.has(name)) problems.push(`${file}: duplicate operation name ${name}`);
    registry.set(name, { name, file, document, operation });
  }
  if (problems.length) throw new OperationRegistryError(problems);
  return registry;
}

/** Limit rules (graphql-armor) throw their first rejection rather than return it: either way it is a problem. */
function validationProblems(schema: GraphQLSchema, document: DocumentNode, validateDocument: ValidateDocument): string[] {
  try {
    return validateDocument(schema, document).map((error) => error.message);
  } catch (error) {
    return [(error as Error).message];
  }
}

function parseOrReport(file: string, text: string, problems: string[]): DocumentNode | undefined {
  try {
    return parse(text);
  } catch (error) {
    problems.push(`${file}: ${(error as Error).message}`);
    return undefined;
  }
}

/** The fragments an operation spreads, transitively. */
function collectFragments(
  root: OperationDefinitionNode,
  available: ReadonlyMap<string, FragmentDefinitionNode>,
  file: string,
  problems: string[],
): FragmentDefinitionNode[] {
  const found = new Map<string, FragmentDefinitionNode>();
  const pending: (OperationDefinitionNode | FragmentDefinitionNode)[] = [root];
  while (pending.length) {
    visit(pending.pop()!, {
      FragmentSpread(node) {
        const name = node.name.value;
        if (found.has(name)) return;
        const fragment = available.get(name);
        if (!fragment) {
          problems.push(`${file}: unknown fragment ${name}`);
          return;
        }
        found.set(name, fragment);
        pending.push(fragment);
      },
    });
  }
  return [...found.values()];
}
