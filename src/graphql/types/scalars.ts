// Scalars: Date (calendar day), DateTime (an instant with its offset), Period (the period grammar, checked like REST
// checks it) and JSON (only the raw proxy's native request body). All travel as strings (JSON: as JSON).
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

// `2026-11-25T13:00:00+01:00`, `2026-11-25T12:00:00.000Z`: a date, a time and an offset (or Z).
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

builder.scalarType('DateTime', {
  description: 'An instant, ISO-8601 with its UTC offset (`2026-11-25T13:00:00+01:00`) or Z; hours of a time series carry the project zone offset of that hour.',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== 'string' || !ISO_INSTANT.test(value)) throw new GraphQLError('DateTime must be an ISO-8601 string with an offset, e.g. 2026-11-25T13:00:00+01:00.');
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
