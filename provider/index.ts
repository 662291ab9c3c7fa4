export * from './eventCatalogue';
export * from './eventData';
export * from './webhookEnvelope';
export * from './correlationKeys';
export * from './identityVerification';
export * from './webhookConfiguration';
export * from './accessToken';
export * from './providerError';
