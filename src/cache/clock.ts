// Milliseconds-since-epoch clock, injected everywhere time matters so tests can move time by hand.

export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
