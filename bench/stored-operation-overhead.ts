// What the GraphQL pipeline costs a stored operation: the same stored document, on the same warm runtime, run
// through the executor (envelop's getEnveloped: hooks and error masking) and through graphql's bare execute.
// Warm means every provider report is a cache hit, so the pipeline is as large a share of the time as it gets.
// Usage: node bench/stored-operation-overhead.ts [rounds] [iterations per round]
import { execute } from 'graphql';
import { loadOperationRegistry } from '../src/operations/registry.ts';
import { createSandboxRuntime } from '../test/helpers/sandbox-runtime.ts';

const rounds = Number(process.argv[2] ?? 5);
const iterations = Number(process.argv[3] ?? 2000);

const rt = await createSandboxRuntime();
try {
  const principal = await rt.deps.authenticate(new Request('http://siteline.test/', { headers: { authorization: `Bearer ${rt.demo.apiKey}` } }), '127.0.0.1');
  const variables = { project: rt.demo.projectKeys[0]!, period: '28days', compare: 'previous' };
  const stored = loadOperationRegistry(rt.deps.schema).get('SiteSummary')!;
  const viaPipeline = () => rt.deps.executeOperation('SiteSummary', variables, rt.deps.createContext(principal, 'bench'));
  const bare = async () => {
    const result = await execute({ schema: rt.deps.schema, document: stored.document, variableValues: variables, contextValue: rt.deps.createContext(principal, 'bench') });
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
} finally {
  await rt.dispose();
}
