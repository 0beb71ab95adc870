/** The `rbac` authorization mode registers itself here (registerAuthorizationMode). Not built yet. */
export {};
