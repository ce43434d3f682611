// Scalars: Date (calendar day), Period (the period grammar, checked like REST checks it) and JSON (only the raw
// proxies' native request bodies).
import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { PARAMETERS } from '../../contract/parameters.ts';
import { parsePeriod } from '../../domain/period.ts';
import { isAppError } from '../../errors/app-error.ts';
import { builder } from '../builder.ts';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

builder.scalarType('Date', {
  description: 'A calendar day, YYYY-MM-DD, in the project time zone.',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== 'string' || !ISO_DAY.test(value)) throw new GraphQLError('Date must be a YYYY-MM-DD string.');
    return value;
  },
});

/**
 * The grammar check needs no clock; END after today is checked by the report, in the project's time zone. A bad
 * period is the error REST gives (code invalid_period, param period), raised while the query is validated.
 */
function checkedPeriod(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    parsePeriod(text);
  } catch (error) {
    if (!isAppError(error)) throw error;
    throw new GraphQLError(error.message, { originalError: error, extensions: { code: error.code, status: error.status, param: error.param } });
  }
  return text;
}

builder.scalarType('Period', {
  description: PARAMETERS.period.description,
  serialize: (value) => String(value),
  parseValue: checkedPeriod,
  parseLiteral: (node) => checkedPeriod(node.kind === Kind.STRING ? node.value : literalValue(node)),
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node) => literalValue(node),
});

function literalValue(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literalValue);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value)]));
    default:
      throw new GraphQLError('Variables are not allowed inside JSON literals.');
  }
}
