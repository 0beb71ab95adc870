/** Allocation failures, worded as kube's ipallocator / portallocator errors (clients see them in 422 causes). */
export class AllocationError extends Error {
  constructor(readonly reason: 'allocated' | 'range' | 'full', message: string) {
    super(message);
  }
}

export const ipErrors = {
  allocated: () => new AllocationError('allocated', 'provided IP is already allocated'),
  range: (ip: string, range: string) => new AllocationError('range', `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${range}`),
  full: () => new AllocationError('full', 'range is full'),
};

export const portErrors = {
  allocated: () => new AllocationError('allocated', 'provided port is already allocated'),
  range: (range: string) => new AllocationError('range', `provided port is not in the valid range. The range of valid ports is ${range}`),
  full: () => new AllocationError('full', 'range is full'),
};
