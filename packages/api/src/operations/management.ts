import { Type } from 'typebox';
import { defineOperation } from './operation.js';

/**
 * The Spring Boot actuator endpoint Komga documents (api.md §9.1). Health, shutdown and the log file are actuator
 * endpoints Komga leaves out of its document; Quire serves them as plain routes (http/routes/actuator.ts).
 */
export const managementOperations = {
  getActuatorInfo: defineOperation({
    operationId: 'getActuatorInfo',
    method: 'GET',
    path: '/actuator/info',
    tags: ['Management'],
    summary: 'Actuator info',
    description: "Komga's `java` section describes the JVM; Quire describes Node.js and V8 in the same shape.",
    access: 'ADMIN',
    responses: {
      200: Type.Object({
        git: Type.Object({
          branch: Type.Union([Type.String(), Type.Null()]),
          commit: Type.Object({
            id: Type.Union([Type.String(), Type.Null()]),
            time: Type.Union([Type.String(), Type.Null()]),
          }),
        }),
        build: Type.Object({
          artifact: Type.String(),
          name: Type.String(),
          version: Type.String(),
          group: Type.String(),
        }),
        java: Type.Object({
          version: Type.String(),
          vendor: Type.Object({ name: Type.String(), version: Type.String() }),
          runtime: Type.Object({ name: Type.String(), version: Type.String() }),
          jvm: Type.Object({ name: Type.String(), vendor: Type.String(), version: Type.String() }),
        }),
        os: Type.Object({ name: Type.String(), version: Type.String(), arch: Type.String() }),
      }),
    },
    produces: ['application/vnd.spring-boot.actuator.v3+json'],
  }),
};
