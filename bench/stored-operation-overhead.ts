// What the GraphQL pipeline costs a stored operation: the same stored document, on the same warm runtime, run
// through the executor (envelop's getEnveloped: hooks and error masking) and through graphql's bare execute.
// Warm means every provider report is a cache hit, so the pipeline is as large a share of the time as it gets.
// Then the pipeline's own cost, on a document that does no work at all ({ __typename }).
// Usage: node bench/stored-operation-overhead.ts [rounds] [iterations per round]
import { execute, parse } from 'graphql';
import { createStoredOperationPipeline } from '../src/graphql/pipeline.ts';
import { schema } from '../src/graphql/schema.ts';
import { loadOperationRegistry } from '../src/operations/registry.ts';
import { createSandboxRuntime } from '../test/helpers/sandbox-runtime.ts';

const rounds = Number(process.argv[2] ?? 5);
const iterations = Number(process.argv[3] ?? 2000);

const rt = await createSandboxRuntime();
try {
  const principal = await rt.deps.authenticate(new Request('http://siteline.test/', { headers: { authorization: `Bearer ${rt.demo.apiKey}` } }), '127.0.0.1');
  const variables = { project: rt.demo.projectKeys[0]!, period: '28days', compare: 'previous' };
  const stored = loadOperationRegistry(schema).get('SiteSummary')!;
  const viaPipeline = () => rt.deps.executeOperation('SiteSummary', variables, rt.deps.createContext(principal, 'bench'));
  const bare = async () => {
    const result = await execute({ schema, document: stored.document, variableValues: variables, contextValue: rt.deps.createContext(principal, 'bench') });
    if (result.errors?.length) throw result.errors[0];
    return result.data;
  };
  await viaPipeline(); // fills the cache
  const time = async (run: () => Promise<unknown>) => {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await run();
    return ((performance.now() - start) * 1000) / iterations;
  };
  const samples: { pipeline: number[]; bare: number[] } = { pipeline: [], bare: [] };
  for (let round = 0; round < rounds; round++) {
    // Alternate the order, so neither path always runs on the warmer JIT.
    if (round % 2 === 0) {
      samples.bare.push(await time(bare));
      samples.pipeline.push(await time(viaPipeline));
    } else {
      samples.pipeline.push(await time(viaPipeline));
      samples.bare.push(await time(bare));
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const bareUs = median(samples.bare);
  const pipelineUs = median(samples.pipeline);
  console.log(`SiteSummary, warm, ${rounds} rounds × ${iterations}: bare execute ${bareUs.toFixed(1)} µs/op, pipeline ${pipelineUs.toFixed(1)} µs/op (${(((pipelineUs - bareUs) / bareUs) * 100).toFixed(1)} %)`);

  const empty = parse('{ __typename }');
  const pipeline = createStoredOperationPipeline(schema);
  const emptyBare = () => Promise.resolve(execute({ schema, document: empty, contextValue: {} }));
  const emptyPipeline = () => Promise.resolve(pipeline.getEnveloped({}).execute({ schema, document: empty, contextValue: {} }));
  const many = iterations * 10;
  const timeMany = async (run: () => Promise<unknown>) => {
    const start = performance.now();
    for (let i = 0; i < many; i++) await run();
    return ((performance.now() - start) * 1000) / many;
  };
  await timeMany(emptyBare);
  await timeMany(emptyPipeline);
  const emptyBareUs = await timeMany(emptyBare);
  const emptyPipelineUs = await timeMany(emptyPipeline);
  console.log(`{ __typename } × ${many}: bare execute ${emptyBareUs.toFixed(2)} µs/op, pipeline ${emptyPipelineUs.toFixed(2)} µs/op (+${(emptyPipelineUs - emptyBareUs).toFixed(2)} µs)`);
} finally {
  await rt.dispose();
}
