// Scalars: Date (calendar day) and JSON (dynamic maps keyed by metric or dimension names).
import { GraphQLError, Kind, type ValueNode } from 'graphql';
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
