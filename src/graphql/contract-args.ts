// GraphQL arguments of the contract's fields, built from the one parameter catalogue: every argument is the raw
// string the caller sent (the report pipelines parse it), described as REST and MCP describe it.
import { PARAMETERS, type ParameterName } from '../contract/parameters.ts';
import type { builder } from './builder.ts';

type ArgBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0]['arg'];
const requiredArg = (arg: ArgBuilder, description: string) => arg.string({ required: true, description });
const optionalArg = (arg: ArgBuilder, description: string) => arg.string({ description });

export function contractArgs<R extends ParameterName, O extends ParameterName>(
  arg: ArgBuilder,
  required: readonly R[],
  optional: readonly O[] = [],
): Record<R, ReturnType<typeof requiredArg>> & Record<O, ReturnType<typeof optionalArg>> {
  const args: Record<string, unknown> = {};
  for (const name of required) args[name] = requiredArg(arg, PARAMETERS[name].description);
  for (const name of optional) args[name] = optionalArg(arg, PARAMETERS[name].description);
  return args as Record<R, ReturnType<typeof requiredArg>> & Record<O, ReturnType<typeof optionalArg>>;
}
