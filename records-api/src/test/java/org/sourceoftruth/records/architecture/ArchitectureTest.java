package org.sourceoftruth.records.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package graph of records-api, held by a test so it stays what the README describes:
 * no package cycles (between top-level packages, and between the engine's parts: query,
 * render, write, store, custom fields), the engine never reaches up into the HTTP resources
 * (api) above it, and the engine and the layers under it never reach up into the applications
 * (dcim, ipam, ...) that are declared on top of them.
 */
class ArchitectureTest {
    private static final String ROOT = "org.sourceoftruth.records";
    /** The generic engine and what it stands on. */
    private static final String[] ENGINE = {
        ROOT + ".api..",
        ROOT + ".engine..",
        ROOT + ".kind..",
        ROOT + ".model..",
        ROOT + ".db..",
        ROOT + ".web..",
        ROOT + ".net..",
        ROOT + ".auth..",
        ROOT + ".changelog.."
    };
    /** NetBox's applications, declared on the engine. */
    private static final String[] APPS = {
        ROOT + ".dcim..",
        ROOT + ".ipam..",
        ROOT + ".circuits..",
        ROOT + ".tenancy..",
        ROOT + ".virtualization..",
        ROOT + ".extras..",
        ROOT + ".users..",
        ROOT + ".core..",
        ROOT + ".vpn..",
        ROOT + ".wireless.."
    };

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    /** Asserts the rule holds over the main classes (and that there are classes to judge). */
    private static void assertHolds(ArchRule rule) {
        assertTrue(classes.size() > 100, "records-api's main classes were imported (" + classes.size() + ")");
        EvaluationResult result = rule.evaluate(classes);
        assertFalse(result.hasViolation(), () -> result.getFailureReport().toString());
    }

    @Test
    void packagesAreFreeOfCycles() {
        assertHolds(slices().matching(ROOT + ".(*)..").should().beFreeOfCycles());
    }

    @Test
    void theEnginesPartsAreFreeOfCycles() {
        assertHolds(slices().matching(ROOT + ".engine.(*)..").should().beFreeOfCycles());
    }

    @Test
    void theEngineDoesNotDependOnTheHttpResources() {
        assertHolds(noClasses()
                .that()
                .resideInAnyPackage(ROOT + ".engine..", ROOT + ".kind..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(ROOT + ".api.."));
    }

    @Test
    void theEngineDoesNotDependOnTheApplications() {
        assertHolds(noClasses()
                .that()
                .resideInAnyPackage(ENGINE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(APPS));
    }

    @Test
    void webAndStorageLayersDoNotDependOnTheEngine() {
        assertHolds(noClasses()
                .that()
                .resideInAnyPackage(ROOT + ".db..", ROOT + ".web..", ROOT + ".net..", ROOT + ".model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        ROOT + ".api..",
                        ROOT + ".engine..",
                        ROOT + ".kind..",
                        ROOT + ".auth..",
                        ROOT + ".changelog.."));
    }
}
